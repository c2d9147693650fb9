from typing import Literal

JobsListResponse200JobsItemPool = Literal["ai", "cleanup", "embedding", "fix", "ingest"]

JOBS_LIST_RESPONSE_200_JOBS_ITEM_POOL_VALUES: set[JobsListResponse200JobsItemPool] = {
    "ai",
    "cleanup",
    "embedding",
    "fix",
    "ingest",
}


def check_jobs_list_response_200_jobs_item_pool(
    value: str,
) -> JobsListResponse200JobsItemPool:
    if value in JOBS_LIST_RESPONSE_200_JOBS_ITEM_POOL_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_LIST_RESPONSE_200_JOBS_ITEM_POOL_VALUES!r}"
    )
