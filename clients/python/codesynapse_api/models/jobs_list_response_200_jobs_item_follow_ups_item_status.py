from typing import Literal

JobsListResponse200JobsItemFollowUpsItemStatus = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

JOBS_LIST_RESPONSE_200_JOBS_ITEM_FOLLOW_UPS_ITEM_STATUS_VALUES: set[
    JobsListResponse200JobsItemFollowUpsItemStatus
] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_jobs_list_response_200_jobs_item_follow_ups_item_status(
    value: str,
) -> JobsListResponse200JobsItemFollowUpsItemStatus:
    if value in JOBS_LIST_RESPONSE_200_JOBS_ITEM_FOLLOW_UPS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_LIST_RESPONSE_200_JOBS_ITEM_FOLLOW_UPS_ITEM_STATUS_VALUES!r}"
    )
