from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.admin_retry_job_response_202_job_status import (
    AdminRetryJobResponse202JobStatus,
    check_admin_retry_job_response_202_job_status,
)

if TYPE_CHECKING:
    from ..models.admin_retry_job_response_202_job_progress_type_0 import (
        AdminRetryJobResponse202JobProgressType0,
    )


T = TypeVar("T", bound="AdminRetryJobResponse202Job")


@_attrs_define
class AdminRetryJobResponse202Job:
    """
    Attributes:
        id (str):
        kind (str):
        pool (str):
        status (AdminRetryJobResponse202JobStatus):
        system (bool):
        org_id (None | str):
        org_name (None | str):
        repo_id (None | str):
        repo_name (None | str):
        origin_job_id (None | str):
        actor_user_id (None | str):
        actor_email (None | str):
        error_code (None | str):
        message (None | str): The failure in words (null while there is none).
        attempts (int):
        max_attempts (int):
        restartable (bool):
        cancel_requested (bool):
        lease_owner (None | str):
        lease_expires_at (None | str):
        progress (AdminRetryJobResponse202JobProgressType0 | None):
        created_at (None | str):
        run_at (None | str):
        started_at (None | str):
        finished_at (None | str):
        retryable (bool):
        cancelable (bool):
    """

    id: str
    kind: str
    pool: str
    status: AdminRetryJobResponse202JobStatus
    system: bool
    org_id: None | str
    org_name: None | str
    repo_id: None | str
    repo_name: None | str
    origin_job_id: None | str
    actor_user_id: None | str
    actor_email: None | str
    error_code: None | str
    message: None | str
    attempts: int
    max_attempts: int
    restartable: bool
    cancel_requested: bool
    lease_owner: None | str
    lease_expires_at: None | str
    progress: AdminRetryJobResponse202JobProgressType0 | None
    created_at: None | str
    run_at: None | str
    started_at: None | str
    finished_at: None | str
    retryable: bool
    cancelable: bool

    def to_dict(self) -> dict[str, Any]:
        from ..models.admin_retry_job_response_202_job_progress_type_0 import (
            AdminRetryJobResponse202JobProgressType0,
        )

        id = self.id

        kind = self.kind

        pool = self.pool

        status: str = self.status

        system = self.system

        org_id: None | str
        org_id = self.org_id

        org_name: None | str
        org_name = self.org_name

        repo_id: None | str
        repo_id = self.repo_id

        repo_name: None | str
        repo_name = self.repo_name

        origin_job_id: None | str
        origin_job_id = self.origin_job_id

        actor_user_id: None | str
        actor_user_id = self.actor_user_id

        actor_email: None | str
        actor_email = self.actor_email

        error_code: None | str
        error_code = self.error_code

        message: None | str
        message = self.message

        attempts = self.attempts

        max_attempts = self.max_attempts

        restartable = self.restartable

        cancel_requested = self.cancel_requested

        lease_owner: None | str
        lease_owner = self.lease_owner

        lease_expires_at: None | str
        lease_expires_at = self.lease_expires_at

        progress: dict[str, Any] | None
        if isinstance(self.progress, AdminRetryJobResponse202JobProgressType0):
            progress = self.progress.to_dict()
        else:
            progress = self.progress

        created_at: None | str
        created_at = self.created_at

        run_at: None | str
        run_at = self.run_at

        started_at: None | str
        started_at = self.started_at

        finished_at: None | str
        finished_at = self.finished_at

        retryable = self.retryable

        cancelable = self.cancelable

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "pool": pool,
                "status": status,
                "system": system,
                "org_id": org_id,
                "org_name": org_name,
                "repo_id": repo_id,
                "repo_name": repo_name,
                "origin_job_id": origin_job_id,
                "actor_user_id": actor_user_id,
                "actor_email": actor_email,
                "error_code": error_code,
                "message": message,
                "attempts": attempts,
                "max_attempts": max_attempts,
                "restartable": restartable,
                "cancel_requested": cancel_requested,
                "lease_owner": lease_owner,
                "lease_expires_at": lease_expires_at,
                "progress": progress,
                "created_at": created_at,
                "run_at": run_at,
                "started_at": started_at,
                "finished_at": finished_at,
                "retryable": retryable,
                "cancelable": cancelable,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_retry_job_response_202_job_progress_type_0 import (
            AdminRetryJobResponse202JobProgressType0,
        )

        d = dict(src_dict)
        id = d.pop("id")

        kind = d.pop("kind")

        pool = d.pop("pool")

        status = check_admin_retry_job_response_202_job_status(d.pop("status"))

        system = d.pop("system")

        def _parse_org_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        org_id = _parse_org_id(d.pop("org_id"))

        def _parse_org_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        org_name = _parse_org_name(d.pop("org_name"))

        def _parse_repo_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        repo_id = _parse_repo_id(d.pop("repo_id"))

        def _parse_repo_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        repo_name = _parse_repo_name(d.pop("repo_name"))

        def _parse_origin_job_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        origin_job_id = _parse_origin_job_id(d.pop("origin_job_id"))

        def _parse_actor_user_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor_user_id = _parse_actor_user_id(d.pop("actor_user_id"))

        def _parse_actor_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor_email = _parse_actor_email(d.pop("actor_email"))

        def _parse_error_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_code = _parse_error_code(d.pop("error_code"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        attempts = d.pop("attempts")

        max_attempts = d.pop("max_attempts")

        restartable = d.pop("restartable")

        cancel_requested = d.pop("cancel_requested")

        def _parse_lease_owner(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        lease_owner = _parse_lease_owner(d.pop("lease_owner"))

        def _parse_lease_expires_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        lease_expires_at = _parse_lease_expires_at(d.pop("lease_expires_at"))

        def _parse_progress(
            data: object,
        ) -> AdminRetryJobResponse202JobProgressType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                progress_type_0 = AdminRetryJobResponse202JobProgressType0.from_dict(
                    data
                )

                return progress_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AdminRetryJobResponse202JobProgressType0 | None, data)

        progress = _parse_progress(d.pop("progress"))

        def _parse_created_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        created_at = _parse_created_at(d.pop("created_at"))

        def _parse_run_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        run_at = _parse_run_at(d.pop("run_at"))

        def _parse_started_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_finished_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        retryable = d.pop("retryable")

        cancelable = d.pop("cancelable")

        admin_retry_job_response_202_job = cls(
            id=id,
            kind=kind,
            pool=pool,
            status=status,
            system=system,
            org_id=org_id,
            org_name=org_name,
            repo_id=repo_id,
            repo_name=repo_name,
            origin_job_id=origin_job_id,
            actor_user_id=actor_user_id,
            actor_email=actor_email,
            error_code=error_code,
            message=message,
            attempts=attempts,
            max_attempts=max_attempts,
            restartable=restartable,
            cancel_requested=cancel_requested,
            lease_owner=lease_owner,
            lease_expires_at=lease_expires_at,
            progress=progress,
            created_at=created_at,
            run_at=run_at,
            started_at=started_at,
            finished_at=finished_at,
            retryable=retryable,
            cancelable=cancelable,
        )

        return admin_retry_job_response_202_job
