from typing import Literal

SessionMemoryClearResponse200Scope = Literal["namespace", "promoted", "session"]

SESSION_MEMORY_CLEAR_RESPONSE_200_SCOPE_VALUES: set[
    SessionMemoryClearResponse200Scope
] = {
    "namespace",
    "promoted",
    "session",
}


def check_session_memory_clear_response_200_scope(
    value: str,
) -> SessionMemoryClearResponse200Scope:
    if value in SESSION_MEMORY_CLEAR_RESPONSE_200_SCOPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SESSION_MEMORY_CLEAR_RESPONSE_200_SCOPE_VALUES!r}"
    )
