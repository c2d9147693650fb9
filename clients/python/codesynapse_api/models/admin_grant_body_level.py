from typing import Literal

AdminGrantBodyLevel = Literal["admin", "read", "write"]

ADMIN_GRANT_BODY_LEVEL_VALUES: set[AdminGrantBodyLevel] = {
    "admin",
    "read",
    "write",
}


def check_admin_grant_body_level(value: str) -> AdminGrantBodyLevel:
    if value in ADMIN_GRANT_BODY_LEVEL_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_GRANT_BODY_LEVEL_VALUES!r}"
    )
