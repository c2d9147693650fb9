from typing import Literal

AdminGetJobResponse200FollowUpsItemStatus = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

ADMIN_GET_JOB_RESPONSE_200_FOLLOW_UPS_ITEM_STATUS_VALUES: set[
    AdminGetJobResponse200FollowUpsItemStatus
] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_admin_get_job_response_200_follow_ups_item_status(
    value: str,
) -> AdminGetJobResponse200FollowUpsItemStatus:
    if value in ADMIN_GET_JOB_RESPONSE_200_FOLLOW_UPS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_GET_JOB_RESPONSE_200_FOLLOW_UPS_ITEM_STATUS_VALUES!r}"
    )
