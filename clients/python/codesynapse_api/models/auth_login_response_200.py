from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AuthLoginResponse200")


@_attrs_define
class AuthLoginResponse200:
    """
    Attributes:
        user_id (str):
        expires_at (str):
    """

    user_id: str
    expires_at: str

    def to_dict(self) -> dict[str, Any]:
        user_id = self.user_id

        expires_at = self.expires_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = d.pop("user_id")

        expires_at = d.pop("expires_at")

        auth_login_response_200 = cls(
            user_id=user_id,
            expires_at=expires_at,
        )

        return auth_login_response_200
