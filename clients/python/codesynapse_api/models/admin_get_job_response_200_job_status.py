from typing import Literal

AdminGetJobResponse200JobStatus = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

ADMIN_GET_JOB_RESPONSE_200_JOB_STATUS_VALUES: set[AdminGetJobResponse200JobStatus] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_admin_get_job_response_200_job_status(
    value: str,
) -> AdminGetJobResponse200JobStatus:
    if value in ADMIN_GET_JOB_RESPONSE_200_JOB_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_GET_JOB_RESPONSE_200_JOB_STATUS_VALUES!r}"
    )
