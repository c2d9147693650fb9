from typing import Literal

JobsCancelResponse202Pool = Literal["ai", "cleanup", "embedding", "fix", "ingest"]

JOBS_CANCEL_RESPONSE_202_POOL_VALUES: set[JobsCancelResponse202Pool] = {
    "ai",
    "cleanup",
    "embedding",
    "fix",
    "ingest",
}


def check_jobs_cancel_response_202_pool(value: str) -> JobsCancelResponse202Pool:
    if value in JOBS_CANCEL_RESPONSE_202_POOL_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_CANCEL_RESPONSE_202_POOL_VALUES!r}"
    )
