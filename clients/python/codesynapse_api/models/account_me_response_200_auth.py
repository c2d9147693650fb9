from typing import Literal

AccountMeResponse200Auth = Literal["api_key", "browser"]

ACCOUNT_ME_RESPONSE_200_AUTH_VALUES: set[AccountMeResponse200Auth] = {
    "api_key",
    "browser",
}


def check_account_me_response_200_auth(value: str) -> AccountMeResponse200Auth:
    if value in ACCOUNT_ME_RESPONSE_200_AUTH_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ACCOUNT_ME_RESPONSE_200_AUTH_VALUES!r}"
    )
