from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ExecutionRegisterSessionResponse200")


@_attrs_define
class ExecutionRegisterSessionResponse200:
    """
    Attributes:
        tenant_id (str):
        subject_id (str):
        session_id (str):
        parent_session_id (str):
        expires_at (str):
    """

    tenant_id: str
    subject_id: str
    session_id: str
    parent_session_id: str
    expires_at: str

    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        subject_id = self.subject_id

        session_id = self.session_id

        parent_session_id = self.parent_session_id

        expires_at = self.expires_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tenant_id": tenant_id,
                "subject_id": subject_id,
                "session_id": session_id,
                "parent_session_id": parent_session_id,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        subject_id = d.pop("subject_id")

        session_id = d.pop("session_id")

        parent_session_id = d.pop("parent_session_id")

        expires_at = d.pop("expires_at")

        execution_register_session_response_200 = cls(
            tenant_id=tenant_id,
            subject_id=subject_id,
            session_id=session_id,
            parent_session_id=parent_session_id,
            expires_at=expires_at,
        )

        return execution_register_session_response_200
