from typing import Literal

JobsGetResponse200Pool = Literal["ai", "cleanup", "embedding", "fix", "ingest"]

JOBS_GET_RESPONSE_200_POOL_VALUES: set[JobsGetResponse200Pool] = {
    "ai",
    "cleanup",
    "embedding",
    "fix",
    "ingest",
}


def check_jobs_get_response_200_pool(value: str) -> JobsGetResponse200Pool:
    if value in JOBS_GET_RESPONSE_200_POOL_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_GET_RESPONSE_200_POOL_VALUES!r}"
    )
