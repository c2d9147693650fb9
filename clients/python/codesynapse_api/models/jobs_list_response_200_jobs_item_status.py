from typing import Literal

JobsListResponse200JobsItemStatus = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

JOBS_LIST_RESPONSE_200_JOBS_ITEM_STATUS_VALUES: set[
    JobsListResponse200JobsItemStatus
] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_jobs_list_response_200_jobs_item_status(
    value: str,
) -> JobsListResponse200JobsItemStatus:
    if value in JOBS_LIST_RESPONSE_200_JOBS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_LIST_RESPONSE_200_JOBS_ITEM_STATUS_VALUES!r}"
    )
