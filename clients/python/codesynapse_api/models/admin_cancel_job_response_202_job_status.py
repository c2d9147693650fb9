from typing import Literal

AdminCancelJobResponse202JobStatus = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

ADMIN_CANCEL_JOB_RESPONSE_202_JOB_STATUS_VALUES: set[
    AdminCancelJobResponse202JobStatus
] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_admin_cancel_job_response_202_job_status(
    value: str,
) -> AdminCancelJobResponse202JobStatus:
    if value in ADMIN_CANCEL_JOB_RESPONSE_202_JOB_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_CANCEL_JOB_RESPONSE_202_JOB_STATUS_VALUES!r}"
    )
