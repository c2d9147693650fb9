from typing import Literal

SessionMemoryErasureResponse200StoresItemStatus = Literal["done", "pending"]

SESSION_MEMORY_ERASURE_RESPONSE_200_STORES_ITEM_STATUS_VALUES: set[
    SessionMemoryErasureResponse200StoresItemStatus
] = {
    "done",
    "pending",
}


def check_session_memory_erasure_response_200_stores_item_status(
    value: str,
) -> SessionMemoryErasureResponse200StoresItemStatus:
    if value in SESSION_MEMORY_ERASURE_RESPONSE_200_STORES_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SESSION_MEMORY_ERASURE_RESPONSE_200_STORES_ITEM_STATUS_VALUES!r}"
    )
