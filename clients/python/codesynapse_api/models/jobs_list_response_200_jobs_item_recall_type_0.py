from typing import Literal

JobsListResponse200JobsItemRecallType0 = Literal["complete", "partial"]

JOBS_LIST_RESPONSE_200_JOBS_ITEM_RECALL_TYPE_0_VALUES: set[
    JobsListResponse200JobsItemRecallType0
] = {
    "complete",
    "partial",
}


def check_jobs_list_response_200_jobs_item_recall_type_0(
    value: str,
) -> JobsListResponse200JobsItemRecallType0:
    if value in JOBS_LIST_RESPONSE_200_JOBS_ITEM_RECALL_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_LIST_RESPONSE_200_JOBS_ITEM_RECALL_TYPE_0_VALUES!r}"
    )
