from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.repository_memory_history_response_200_versions_item_status import (
    RepositoryMemoryHistoryResponse200VersionsItemStatus,
    check_repository_memory_history_response_200_versions_item_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.repository_memory_history_response_200_versions_item_object import (
        RepositoryMemoryHistoryResponse200VersionsItemObject,
    )
    from ..models.repository_memory_history_response_200_versions_item_subject import (
        RepositoryMemoryHistoryResponse200VersionsItemSubject,
    )


T = TypeVar("T", bound="RepositoryMemoryHistoryResponse200VersionsItem")


@_attrs_define
class RepositoryMemoryHistoryResponse200VersionsItem:
    """
    Attributes:
        fact_id (str):
        subject (RepositoryMemoryHistoryResponse200VersionsItemSubject):
        predicate (str):
        object_ (RepositoryMemoryHistoryResponse200VersionsItemObject):
        origin_session_id (None | str): The session that wrote the fact (null for a write without one).
        valid_from (None | str):
        valid_to (None | str):
        ended_by (None | str): The session whose write ended this interval (null while current, or once that session was
            forgotten).
        status (RepositoryMemoryHistoryResponse200VersionsItemStatus):
        replaced_by (list[str]):
        source (str | Unset):
        observed_at (str | Unset):
    """

    fact_id: str
    subject: RepositoryMemoryHistoryResponse200VersionsItemSubject
    predicate: str
    object_: RepositoryMemoryHistoryResponse200VersionsItemObject
    origin_session_id: None | str
    valid_from: None | str
    valid_to: None | str
    ended_by: None | str
    status: RepositoryMemoryHistoryResponse200VersionsItemStatus
    replaced_by: list[str]
    source: str | Unset = UNSET
    observed_at: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        fact_id = self.fact_id

        subject = self.subject.to_dict()

        predicate = self.predicate

        object_ = self.object_.to_dict()

        origin_session_id: None | str
        origin_session_id = self.origin_session_id

        valid_from: None | str
        valid_from = self.valid_from

        valid_to: None | str
        valid_to = self.valid_to

        ended_by: None | str
        ended_by = self.ended_by

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
                "origin_session_id": origin_session_id,
                "valid_from": valid_from,
                "valid_to": valid_to,
                "ended_by": ended_by,
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
        from ..models.repository_memory_history_response_200_versions_item_object import (
            RepositoryMemoryHistoryResponse200VersionsItemObject,
        )
        from ..models.repository_memory_history_response_200_versions_item_subject import (
            RepositoryMemoryHistoryResponse200VersionsItemSubject,
        )

        d = dict(src_dict)
        fact_id = d.pop("fact_id")

        subject = RepositoryMemoryHistoryResponse200VersionsItemSubject.from_dict(
            d.pop("subject")
        )

        predicate = d.pop("predicate")

        object_ = RepositoryMemoryHistoryResponse200VersionsItemObject.from_dict(
            d.pop("object")
        )

        def _parse_origin_session_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        origin_session_id = _parse_origin_session_id(d.pop("origin_session_id"))

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

        def _parse_ended_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ended_by = _parse_ended_by(d.pop("ended_by"))

        status = check_repository_memory_history_response_200_versions_item_status(
            d.pop("status")
        )

        replaced_by = cast(list[str], d.pop("replaced_by"))

        source = d.pop("source", UNSET)

        observed_at = d.pop("observed_at", UNSET)

        repository_memory_history_response_200_versions_item = cls(
            fact_id=fact_id,
            subject=subject,
            predicate=predicate,
            object_=object_,
            origin_session_id=origin_session_id,
            valid_from=valid_from,
            valid_to=valid_to,
            ended_by=ended_by,
            status=status,
            replaced_by=replaced_by,
            source=source,
            observed_at=observed_at,
        )

        return repository_memory_history_response_200_versions_item
