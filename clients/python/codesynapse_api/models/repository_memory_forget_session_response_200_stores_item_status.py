from typing import Literal

RepositoryMemoryForgetSessionResponse200StoresItemStatus = Literal["done", "pending"]

REPOSITORY_MEMORY_FORGET_SESSION_RESPONSE_200_STORES_ITEM_STATUS_VALUES: set[
    RepositoryMemoryForgetSessionResponse200StoresItemStatus
] = {
    "done",
    "pending",
}


def check_repository_memory_forget_session_response_200_stores_item_status(
    value: str,
) -> RepositoryMemoryForgetSessionResponse200StoresItemStatus:
    if value in REPOSITORY_MEMORY_FORGET_SESSION_RESPONSE_200_STORES_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REPOSITORY_MEMORY_FORGET_SESSION_RESPONSE_200_STORES_ITEM_STATUS_VALUES!r}"
    )
