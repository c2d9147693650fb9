from typing import Literal

JobsGetResponse200FollowUpsItemStatus = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

JOBS_GET_RESPONSE_200_FOLLOW_UPS_ITEM_STATUS_VALUES: set[
    JobsGetResponse200FollowUpsItemStatus
] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_jobs_get_response_200_follow_ups_item_status(
    value: str,
) -> JobsGetResponse200FollowUpsItemStatus:
    if value in JOBS_GET_RESPONSE_200_FOLLOW_UPS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_GET_RESPONSE_200_FOLLOW_UPS_ITEM_STATUS_VALUES!r}"
    )
