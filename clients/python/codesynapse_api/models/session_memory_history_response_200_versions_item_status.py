from typing import Literal

SessionMemoryHistoryResponse200VersionsItemStatus = Literal[
    "current", "retracted", "superseded"
]

SESSION_MEMORY_HISTORY_RESPONSE_200_VERSIONS_ITEM_STATUS_VALUES: set[
    SessionMemoryHistoryResponse200VersionsItemStatus
] = {
    "current",
    "retracted",
    "superseded",
}


def check_session_memory_history_response_200_versions_item_status(
    value: str,
) -> SessionMemoryHistoryResponse200VersionsItemStatus:
    if value in SESSION_MEMORY_HISTORY_RESPONSE_200_VERSIONS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SESSION_MEMORY_HISTORY_RESPONSE_200_VERSIONS_ITEM_STATUS_VALUES!r}"
    )
