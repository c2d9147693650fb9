from typing import Literal

RepositoryMemoryHistoryResponse200VersionsItemStatus = Literal[
    "current", "retracted", "superseded"
]

REPOSITORY_MEMORY_HISTORY_RESPONSE_200_VERSIONS_ITEM_STATUS_VALUES: set[
    RepositoryMemoryHistoryResponse200VersionsItemStatus
] = {
    "current",
    "retracted",
    "superseded",
}


def check_repository_memory_history_response_200_versions_item_status(
    value: str,
) -> RepositoryMemoryHistoryResponse200VersionsItemStatus:
    if value in REPOSITORY_MEMORY_HISTORY_RESPONSE_200_VERSIONS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REPOSITORY_MEMORY_HISTORY_RESPONSE_200_VERSIONS_ITEM_STATUS_VALUES!r}"
    )
