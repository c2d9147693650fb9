from typing import Literal

JobsCancelResponse200Status = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

JOBS_CANCEL_RESPONSE_200_STATUS_VALUES: set[JobsCancelResponse200Status] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_jobs_cancel_response_200_status(value: str) -> JobsCancelResponse200Status:
    if value in JOBS_CANCEL_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_CANCEL_RESPONSE_200_STATUS_VALUES!r}"
    )
