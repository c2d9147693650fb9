from typing import Literal

AdminAddMemberBodyRole = Literal["admin", "member", "owner"]

ADMIN_ADD_MEMBER_BODY_ROLE_VALUES: set[AdminAddMemberBodyRole] = {
    "admin",
    "member",
    "owner",
}


def check_admin_add_member_body_role(value: str) -> AdminAddMemberBodyRole:
    if value in ADMIN_ADD_MEMBER_BODY_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_ADD_MEMBER_BODY_ROLE_VALUES!r}"
    )
