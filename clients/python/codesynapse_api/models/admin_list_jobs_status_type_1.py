from typing import Literal

AdminListJobsStatusType1 = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

ADMIN_LIST_JOBS_STATUS_TYPE_1_VALUES: set[AdminListJobsStatusType1] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_admin_list_jobs_status_type_1(value: str) -> AdminListJobsStatusType1:
    if value in ADMIN_LIST_JOBS_STATUS_TYPE_1_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_JOBS_STATUS_TYPE_1_VALUES!r}"
    )
