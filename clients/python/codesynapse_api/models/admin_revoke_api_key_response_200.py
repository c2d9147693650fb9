from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminRevokeApiKeyResponse200")


@_attrs_define
class AdminRevokeApiKeyResponse200:
    """
    Attributes:
        prefix (str):
        revoked (bool):
    """

    prefix: str
    revoked: bool

    def to_dict(self) -> dict[str, Any]:
        prefix = self.prefix

        revoked = self.revoked

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "prefix": prefix,
                "revoked": revoked,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        prefix = d.pop("prefix")

        revoked = d.pop("revoked")

        admin_revoke_api_key_response_200 = cls(
            prefix=prefix,
            revoked=revoked,
        )

        return admin_revoke_api_key_response_200
