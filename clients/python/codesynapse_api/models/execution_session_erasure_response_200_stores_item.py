from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.execution_session_erasure_response_200_stores_item_status import (
    ExecutionSessionErasureResponse200StoresItemStatus,
    check_execution_session_erasure_response_200_stores_item_status,
)

T = TypeVar("T", bound="ExecutionSessionErasureResponse200StoresItem")


@_attrs_define
class ExecutionSessionErasureResponse200StoresItem:
    """
    Attributes:
        store (str): A cleaner: session-memory (graph and vectors), ingest-uploads, idempotency-keys, job-quotes (AI/fix
            job parameters and results).
        removed (int): Items removed or redacted by every pass so far.
        status (ExecutionSessionErasureResponse200StoresItemStatus):
    """

    store: str
    removed: int
    status: ExecutionSessionErasureResponse200StoresItemStatus

    def to_dict(self) -> dict[str, Any]:
        store = self.store

        removed = self.removed

        status: str = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "store": store,
                "removed": removed,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        store = d.pop("store")

        removed = d.pop("removed")

        status = check_execution_session_erasure_response_200_stores_item_status(
            d.pop("status")
        )

        execution_session_erasure_response_200_stores_item = cls(
            store=store,
            removed=removed,
            status=status,
        )

        return execution_session_erasure_response_200_stores_item
