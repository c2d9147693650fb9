from typing import Literal

JobsGetResponse200Status = Literal[
    "abandoned", "canceled", "failed", "queued", "refused", "running", "succeeded"
]

JOBS_GET_RESPONSE_200_STATUS_VALUES: set[JobsGetResponse200Status] = {
    "abandoned",
    "canceled",
    "failed",
    "queued",
    "refused",
    "running",
    "succeeded",
}


def check_jobs_get_response_200_status(value: str) -> JobsGetResponse200Status:
    if value in JOBS_GET_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_GET_RESPONSE_200_STATUS_VALUES!r}"
    )
