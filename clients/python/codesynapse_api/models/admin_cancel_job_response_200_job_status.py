from typing import Literal

AdminCancelJobResponse200JobStatus = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

ADMIN_CANCEL_JOB_RESPONSE_200_JOB_STATUS_VALUES: set[
    AdminCancelJobResponse200JobStatus
] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_admin_cancel_job_response_200_job_status(
    value: str,
) -> AdminCancelJobResponse200JobStatus:
    if value in ADMIN_CANCEL_JOB_RESPONSE_200_JOB_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_CANCEL_JOB_RESPONSE_200_JOB_STATUS_VALUES!r}"
    )
