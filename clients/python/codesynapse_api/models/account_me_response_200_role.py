from typing import Literal

AccountMeResponse200Role = Literal["admin", "member", "owner"]

ACCOUNT_ME_RESPONSE_200_ROLE_VALUES: set[AccountMeResponse200Role] = {
    "admin",
    "member",
    "owner",
}


def check_account_me_response_200_role(value: str) -> AccountMeResponse200Role:
    if value in ACCOUNT_ME_RESPONSE_200_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ACCOUNT_ME_RESPONSE_200_ROLE_VALUES!r}"
    )
