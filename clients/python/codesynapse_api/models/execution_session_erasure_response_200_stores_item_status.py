from typing import Literal

ExecutionSessionErasureResponse200StoresItemStatus = Literal["done", "pending"]

EXECUTION_SESSION_ERASURE_RESPONSE_200_STORES_ITEM_STATUS_VALUES: set[
    ExecutionSessionErasureResponse200StoresItemStatus
] = {
    "done",
    "pending",
}


def check_execution_session_erasure_response_200_stores_item_status(
    value: str,
) -> ExecutionSessionErasureResponse200StoresItemStatus:
    if value in EXECUTION_SESSION_ERASURE_RESPONSE_200_STORES_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EXECUTION_SESSION_ERASURE_RESPONSE_200_STORES_ITEM_STATUS_VALUES!r}"
    )
