from typing import Literal

SessionMemoryClearResponse200StoresItemStatus = Literal["done", "pending"]

SESSION_MEMORY_CLEAR_RESPONSE_200_STORES_ITEM_STATUS_VALUES: set[
    SessionMemoryClearResponse200StoresItemStatus
] = {
    "done",
    "pending",
}


def check_session_memory_clear_response_200_stores_item_status(
    value: str,
) -> SessionMemoryClearResponse200StoresItemStatus:
    if value in SESSION_MEMORY_CLEAR_RESPONSE_200_STORES_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SESSION_MEMORY_CLEAR_RESPONSE_200_STORES_ITEM_STATUS_VALUES!r}"
    )
