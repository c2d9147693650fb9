from typing import Literal

JobsCancelResponse202Status = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

JOBS_CANCEL_RESPONSE_202_STATUS_VALUES: set[JobsCancelResponse202Status] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_jobs_cancel_response_202_status(value: str) -> JobsCancelResponse202Status:
    if value in JOBS_CANCEL_RESPONSE_202_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_CANCEL_RESPONSE_202_STATUS_VALUES!r}"
    )
