from typing import Literal

JobsCancelResponse200FollowUpsItemStatus = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

JOBS_CANCEL_RESPONSE_200_FOLLOW_UPS_ITEM_STATUS_VALUES: set[
    JobsCancelResponse200FollowUpsItemStatus
] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_jobs_cancel_response_200_follow_ups_item_status(
    value: str,
) -> JobsCancelResponse200FollowUpsItemStatus:
    if value in JOBS_CANCEL_RESPONSE_200_FOLLOW_UPS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_CANCEL_RESPONSE_200_FOLLOW_UPS_ITEM_STATUS_VALUES!r}"
    )
