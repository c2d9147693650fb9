from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.account_me_response_200_auth import (
    AccountMeResponse200Auth,
    check_account_me_response_200_auth,
)
from ..models.account_me_response_200_role import (
    AccountMeResponse200Role,
    check_account_me_response_200_role,
)

if TYPE_CHECKING:
    from ..models.account_me_response_200_organization import (
        AccountMeResponse200Organization,
    )
    from ..models.account_me_response_200_user import AccountMeResponse200User


T = TypeVar("T", bound="AccountMeResponse200")


@_attrs_define
class AccountMeResponse200:
    """
    Attributes:
        user (AccountMeResponse200User):
        organization (AccountMeResponse200Organization):
        role (AccountMeResponse200Role):
        auth (AccountMeResponse200Auth):
    """

    user: AccountMeResponse200User
    organization: AccountMeResponse200Organization
    role: AccountMeResponse200Role
    auth: AccountMeResponse200Auth

    def to_dict(self) -> dict[str, Any]:
        user = self.user.to_dict()

        organization = self.organization.to_dict()

        role: str = self.role

        auth: str = self.auth

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user": user,
                "organization": organization,
                "role": role,
                "auth": auth,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.account_me_response_200_organization import (
            AccountMeResponse200Organization,
        )
        from ..models.account_me_response_200_user import AccountMeResponse200User

        d = dict(src_dict)
        user = AccountMeResponse200User.from_dict(d.pop("user"))

        organization = AccountMeResponse200Organization.from_dict(d.pop("organization"))

        role = check_account_me_response_200_role(d.pop("role"))

        auth = check_account_me_response_200_auth(d.pop("auth"))

        account_me_response_200 = cls(
            user=user,
            organization=organization,
            role=role,
            auth=auth,
        )

        return account_me_response_200
