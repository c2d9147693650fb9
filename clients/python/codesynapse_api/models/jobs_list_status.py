from typing import Literal

JobsListStatus = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

JOBS_LIST_STATUS_VALUES: set[JobsListStatus] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_jobs_list_status(value: str) -> JobsListStatus:
    if value in JOBS_LIST_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_LIST_STATUS_VALUES!r}"
    )
