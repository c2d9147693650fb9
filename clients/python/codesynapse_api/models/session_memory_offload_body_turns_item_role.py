from typing import Literal

SessionMemoryOffloadBodyTurnsItemRole = Literal["assistant", "tool", "user"]

SESSION_MEMORY_OFFLOAD_BODY_TURNS_ITEM_ROLE_VALUES: set[
    SessionMemoryOffloadBodyTurnsItemRole
] = {
    "assistant",
    "tool",
    "user",
}


def check_session_memory_offload_body_turns_item_role(
    value: str,
) -> SessionMemoryOffloadBodyTurnsItemRole:
    if value in SESSION_MEMORY_OFFLOAD_BODY_TURNS_ITEM_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SESSION_MEMORY_OFFLOAD_BODY_TURNS_ITEM_ROLE_VALUES!r}"
    )
