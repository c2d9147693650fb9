from typing import Literal

AdminGrantResponse200Level = Literal["admin", "read", "write"]

ADMIN_GRANT_RESPONSE_200_LEVEL_VALUES: set[AdminGrantResponse200Level] = {
    "admin",
    "read",
    "write",
}


def check_admin_grant_response_200_level(value: str) -> AdminGrantResponse200Level:
    if value in ADMIN_GRANT_RESPONSE_200_LEVEL_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_GRANT_RESPONSE_200_LEVEL_VALUES!r}"
    )
