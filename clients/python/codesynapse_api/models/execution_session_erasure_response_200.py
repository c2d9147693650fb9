from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.execution_session_erasure_response_200_cause import (
    ExecutionSessionErasureResponse200Cause,
    check_execution_session_erasure_response_200_cause,
)

if TYPE_CHECKING:
    from ..models.execution_session_erasure_response_200_stores_item import (
        ExecutionSessionErasureResponse200StoresItem,
    )


T = TypeVar("T", bound="ExecutionSessionErasureResponse200")


@_attrs_define
class ExecutionSessionErasureResponse200:
    """
    Attributes:
        session_id (str):
        cause (ExecutionSessionErasureResponse200Cause):
        ended_at (str):
        stores (list[ExecutionSessionErasureResponse200StoresItem]):
        passes (int): Cleanup passes recorded (the revocation's own, then the sweep's retries every minute).
        done (bool):
        updated_at (None | str):
    """

    session_id: str
    cause: ExecutionSessionErasureResponse200Cause
    ended_at: str
    stores: list[ExecutionSessionErasureResponse200StoresItem]
    passes: int
    done: bool
    updated_at: None | str

    def to_dict(self) -> dict[str, Any]:
        session_id = self.session_id

        cause: str = self.cause

        ended_at = self.ended_at

        stores = []
        for stores_item_data in self.stores:
            stores_item = stores_item_data.to_dict()
            stores.append(stores_item)

        passes = self.passes

        done = self.done

        updated_at: None | str
        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "session_id": session_id,
                "cause": cause,
                "ended_at": ended_at,
                "stores": stores,
                "passes": passes,
                "done": done,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.execution_session_erasure_response_200_stores_item import (
            ExecutionSessionErasureResponse200StoresItem,
        )

        d = dict(src_dict)
        session_id = d.pop("session_id")

        cause = check_execution_session_erasure_response_200_cause(d.pop("cause"))

        ended_at = d.pop("ended_at")

        stores = []
        _stores = d.pop("stores")
        for stores_item_data in _stores:
            stores_item = ExecutionSessionErasureResponse200StoresItem.from_dict(
                stores_item_data
            )

            stores.append(stores_item)

        passes = d.pop("passes")

        done = d.pop("done")

        def _parse_updated_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        updated_at = _parse_updated_at(d.pop("updated_at"))

        execution_session_erasure_response_200 = cls(
            session_id=session_id,
            cause=cause,
            ended_at=ended_at,
            stores=stores,
            passes=passes,
            done=done,
            updated_at=updated_at,
        )

        return execution_session_erasure_response_200
