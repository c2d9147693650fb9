from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.session_memory_history_response_200_versions_item_status import (
    SessionMemoryHistoryResponse200VersionsItemStatus,
    check_session_memory_history_response_200_versions_item_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.session_memory_history_response_200_versions_item_object import (
        SessionMemoryHistoryResponse200VersionsItemObject,
    )
    from ..models.session_memory_history_response_200_versions_item_subject import (
        SessionMemoryHistoryResponse200VersionsItemSubject,
    )


T = TypeVar("T", bound="SessionMemoryHistoryResponse200VersionsItem")


@_attrs_define
class SessionMemoryHistoryResponse200VersionsItem:
    """
    Attributes:
        fact_id (str):
        subject (SessionMemoryHistoryResponse200VersionsItemSubject):
        predicate (str):
        object_ (SessionMemoryHistoryResponse200VersionsItemObject):
        valid_from (None | str):
        valid_to (None | str):
        session_id (str):
        status (SessionMemoryHistoryResponse200VersionsItemStatus):
        replaced_by (list[str]):
        source (str | Unset):
        observed_at (str | Unset):
    """

    fact_id: str
    subject: SessionMemoryHistoryResponse200VersionsItemSubject
    predicate: str
    object_: SessionMemoryHistoryResponse200VersionsItemObject
    valid_from: None | str
    valid_to: None | str
    session_id: str
    status: SessionMemoryHistoryResponse200VersionsItemStatus
    replaced_by: list[str]
    source: str | Unset = UNSET
    observed_at: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        fact_id = self.fact_id

        subject = self.subject.to_dict()

        predicate = self.predicate

        object_ = self.object_.to_dict()

        valid_from: None | str
        valid_from = self.valid_from

        valid_to: None | str
        valid_to = self.valid_to

        session_id = self.session_id

        status: str = self.status

        replaced_by = self.replaced_by

        source = self.source

        observed_at = self.observed_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fact_id": fact_id,
                "subject": subject,
                "predicate": predicate,
                "object": object_,
                "valid_from": valid_from,
                "valid_to": valid_to,
                "session_id": session_id,
                "status": status,
                "replaced_by": replaced_by,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source
        if observed_at is not UNSET:
            field_dict["observed_at"] = observed_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_memory_history_response_200_versions_item_object import (
            SessionMemoryHistoryResponse200VersionsItemObject,
        )
        from ..models.session_memory_history_response_200_versions_item_subject import (
            SessionMemoryHistoryResponse200VersionsItemSubject,
        )

        d = dict(src_dict)
        fact_id = d.pop("fact_id")

        subject = SessionMemoryHistoryResponse200VersionsItemSubject.from_dict(
            d.pop("subject")
        )

        predicate = d.pop("predicate")

        object_ = SessionMemoryHistoryResponse200VersionsItemObject.from_dict(
            d.pop("object")
        )

        def _parse_valid_from(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        valid_from = _parse_valid_from(d.pop("valid_from"))

        def _parse_valid_to(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        valid_to = _parse_valid_to(d.pop("valid_to"))

        session_id = d.pop("session_id")

        status = check_session_memory_history_response_200_versions_item_status(
            d.pop("status")
        )

        replaced_by = cast(list[str], d.pop("replaced_by"))

        source = d.pop("source", UNSET)

        observed_at = d.pop("observed_at", UNSET)

        session_memory_history_response_200_versions_item = cls(
            fact_id=fact_id,
            subject=subject,
            predicate=predicate,
            object_=object_,
            valid_from=valid_from,
            valid_to=valid_to,
            session_id=session_id,
            status=status,
            replaced_by=replaced_by,
            source=source,
            observed_at=observed_at,
        )

        return session_memory_history_response_200_versions_item
