from typing import Literal

RepositoryMemoryForgetSessionResponse200Scope = Literal[
    "namespace", "promoted", "session"
]

REPOSITORY_MEMORY_FORGET_SESSION_RESPONSE_200_SCOPE_VALUES: set[
    RepositoryMemoryForgetSessionResponse200Scope
] = {
    "namespace",
    "promoted",
    "session",
}


def check_repository_memory_forget_session_response_200_scope(
    value: str,
) -> RepositoryMemoryForgetSessionResponse200Scope:
    if value in REPOSITORY_MEMORY_FORGET_SESSION_RESPONSE_200_SCOPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REPOSITORY_MEMORY_FORGET_SESSION_RESPONSE_200_SCOPE_VALUES!r}"
    )
