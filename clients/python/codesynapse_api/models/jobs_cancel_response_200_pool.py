from typing import Literal

JobsCancelResponse200Pool = Literal["ai", "cleanup", "embedding", "fix", "ingest"]

JOBS_CANCEL_RESPONSE_200_POOL_VALUES: set[JobsCancelResponse200Pool] = {
    "ai",
    "cleanup",
    "embedding",
    "fix",
    "ingest",
}


def check_jobs_cancel_response_200_pool(value: str) -> JobsCancelResponse200Pool:
    if value in JOBS_CANCEL_RESPONSE_200_POOL_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_CANCEL_RESPONSE_200_POOL_VALUES!r}"
    )
