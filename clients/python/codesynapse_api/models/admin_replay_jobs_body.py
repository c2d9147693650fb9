from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.admin_replay_jobs_body_status_type_1 import (
    AdminReplayJobsBodyStatusType1,
    check_admin_replay_jobs_body_status_type_1,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="AdminReplayJobsBody")


@_attrs_define
class AdminReplayJobsBody:
    """
    Attributes:
        pool (Literal[''] | str | Unset): Only jobs of this pool (empty or absent: any).
        status (AdminReplayJobsBodyStatusType1 | Literal[''] | Unset): Only jobs in this status (empty or absent: any).
        org (Literal[''] | str | Unset): Only jobs of this organisation (its id) (empty or absent: any).
        kind (Literal[''] | str | Unset): Only jobs of this kind (empty or absent: any).
        error_code (Literal[''] | str | Unset): Only jobs that ended with this error code (empty or absent: any).
    """

    pool: Literal[""] | str | Unset = UNSET
    status: AdminReplayJobsBodyStatusType1 | Literal[""] | Unset = UNSET
    org: Literal[""] | str | Unset = UNSET
    kind: Literal[""] | str | Unset = UNSET
    error_code: Literal[""] | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        pool: Literal[""] | str | Unset
        if isinstance(self.pool, Unset):
            pool = UNSET
        else:
            pool = self.pool

        status: Literal[""] | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, str):
            status = self.status
        else:
            status = self.status

        org: Literal[""] | str | Unset
        if isinstance(self.org, Unset):
            org = UNSET
        else:
            org = self.org

        kind: Literal[""] | str | Unset
        if isinstance(self.kind, Unset):
            kind = UNSET
        else:
            kind = self.kind

        error_code: Literal[""] | str | Unset
        if isinstance(self.error_code, Unset):
            error_code = UNSET
        else:
            error_code = self.error_code

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if pool is not UNSET:
            field_dict["pool"] = pool
        if status is not UNSET:
            field_dict["status"] = status
        if org is not UNSET:
            field_dict["org"] = org
        if kind is not UNSET:
            field_dict["kind"] = kind
        if error_code is not UNSET:
            field_dict["error_code"] = error_code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_pool(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            pool_type_0 = cast(Literal[""], data)
            if pool_type_0 != "":
                raise ValueError(
                    f"pool_type_0 must match const '', got '{pool_type_0}'"
                )
            return pool_type_0
            return cast(Literal[""] | str | Unset, data)

        pool = _parse_pool(d.pop("pool", UNSET))

        def _parse_status(
            data: object,
        ) -> AdminReplayJobsBodyStatusType1 | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            status_type_0 = cast(Literal[""], data)
            if status_type_0 != "":
                raise ValueError(
                    f"status_type_0 must match const '', got '{status_type_0}'"
                )
            return status_type_0
            if not isinstance(data, str):
                raise TypeError()
            status_type_1 = check_admin_replay_jobs_body_status_type_1(data)

            return status_type_1

        status = _parse_status(d.pop("status", UNSET))

        def _parse_org(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            org_type_0 = cast(Literal[""], data)
            if org_type_0 != "":
                raise ValueError(f"org_type_0 must match const '', got '{org_type_0}'")
            return org_type_0
            return cast(Literal[""] | str | Unset, data)

        org = _parse_org(d.pop("org", UNSET))

        def _parse_kind(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            kind_type_0 = cast(Literal[""], data)
            if kind_type_0 != "":
                raise ValueError(
                    f"kind_type_0 must match const '', got '{kind_type_0}'"
                )
            return kind_type_0
            return cast(Literal[""] | str | Unset, data)

        kind = _parse_kind(d.pop("kind", UNSET))

        def _parse_error_code(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            error_code_type_0 = cast(Literal[""], data)
            if error_code_type_0 != "":
                raise ValueError(
                    f"error_code_type_0 must match const '', got '{error_code_type_0}'"
                )
            return error_code_type_0
            return cast(Literal[""] | str | Unset, data)

        error_code = _parse_error_code(d.pop("error_code", UNSET))

        admin_replay_jobs_body = cls(
            pool=pool,
            status=status,
            org=org,
            kind=kind,
            error_code=error_code,
        )

        return admin_replay_jobs_body
