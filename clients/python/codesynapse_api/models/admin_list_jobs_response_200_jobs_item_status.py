from typing import Literal

AdminListJobsResponse200JobsItemStatus = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

ADMIN_LIST_JOBS_RESPONSE_200_JOBS_ITEM_STATUS_VALUES: set[
    AdminListJobsResponse200JobsItemStatus
] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_admin_list_jobs_response_200_jobs_item_status(
    value: str,
) -> AdminListJobsResponse200JobsItemStatus:
    if value in ADMIN_LIST_JOBS_RESPONSE_200_JOBS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_JOBS_RESPONSE_200_JOBS_ITEM_STATUS_VALUES!r}"
    )
