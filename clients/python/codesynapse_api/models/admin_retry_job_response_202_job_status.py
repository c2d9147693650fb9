from typing import Literal

AdminRetryJobResponse202JobStatus = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

ADMIN_RETRY_JOB_RESPONSE_202_JOB_STATUS_VALUES: set[
    AdminRetryJobResponse202JobStatus
] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_admin_retry_job_response_202_job_status(
    value: str,
) -> AdminRetryJobResponse202JobStatus:
    if value in ADMIN_RETRY_JOB_RESPONSE_202_JOB_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_RETRY_JOB_RESPONSE_202_JOB_STATUS_VALUES!r}"
    )
