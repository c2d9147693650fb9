from typing import Literal

AdminAddMemberResponse200Role = Literal["admin", "member", "owner"]

ADMIN_ADD_MEMBER_RESPONSE_200_ROLE_VALUES: set[AdminAddMemberResponse200Role] = {
    "admin",
    "member",
    "owner",
}


def check_admin_add_member_response_200_role(
    value: str,
) -> AdminAddMemberResponse200Role:
    if value in ADMIN_ADD_MEMBER_RESPONSE_200_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_ADD_MEMBER_RESPONSE_200_ROLE_VALUES!r}"
    )
