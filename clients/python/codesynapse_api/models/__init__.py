"""Contains all the data models used in inputs/outputs"""

from .account_me_response_200 import AccountMeResponse200
from .account_me_response_200_auth import AccountMeResponse200Auth
from .account_me_response_200_organization import AccountMeResponse200Organization
from .account_me_response_200_role import AccountMeResponse200Role
from .account_me_response_200_user import AccountMeResponse200User
from .admin_add_member_body import AdminAddMemberBody
from .admin_add_member_body_role import AdminAddMemberBodyRole
from .admin_add_member_response_200 import AdminAddMemberResponse200
from .admin_add_member_response_200_role import AdminAddMemberResponse200Role
from .admin_bootstrap_body import AdminBootstrapBody
from .admin_bootstrap_response_200 import AdminBootstrapResponse200
from .admin_cancel_job_response_200 import AdminCancelJobResponse200
from .admin_cancel_job_response_200_job import AdminCancelJobResponse200Job
from .admin_cancel_job_response_200_job_progress_type_0 import (
    AdminCancelJobResponse200JobProgressType0,
)
from .admin_cancel_job_response_200_job_status import AdminCancelJobResponse200JobStatus
from .admin_cancel_job_response_202 import AdminCancelJobResponse202
from .admin_cancel_job_response_202_job import AdminCancelJobResponse202Job
from .admin_cancel_job_response_202_job_progress_type_0 import (
    AdminCancelJobResponse202JobProgressType0,
)
from .admin_cancel_job_response_202_job_status import AdminCancelJobResponse202JobStatus
from .admin_create_api_key_body import AdminCreateApiKeyBody
from .admin_create_api_key_response_200 import AdminCreateApiKeyResponse200
from .admin_create_org_body import AdminCreateOrgBody
from .admin_create_org_response_200 import AdminCreateOrgResponse200
from .admin_create_repo_body import AdminCreateRepoBody
from .admin_create_repo_response_200 import AdminCreateRepoResponse200
from .admin_create_user_body import AdminCreateUserBody
from .admin_create_user_response_200 import AdminCreateUserResponse200
from .admin_get_job_response_200 import AdminGetJobResponse200
from .admin_get_job_response_200_attempts_item import AdminGetJobResponse200AttemptsItem
from .admin_get_job_response_200_follow_ups_item import (
    AdminGetJobResponse200FollowUpsItem,
)
from .admin_get_job_response_200_follow_ups_item_status import (
    AdminGetJobResponse200FollowUpsItemStatus,
)
from .admin_get_job_response_200_job import AdminGetJobResponse200Job
from .admin_get_job_response_200_job_progress_type_0 import (
    AdminGetJobResponse200JobProgressType0,
)
from .admin_get_job_response_200_job_status import AdminGetJobResponse200JobStatus
from .admin_grant_body import AdminGrantBody
from .admin_grant_body_level import AdminGrantBodyLevel
from .admin_grant_response_200 import AdminGrantResponse200
from .admin_grant_response_200_level import AdminGrantResponse200Level
from .admin_job_charts_response_200 import AdminJobChartsResponse200
from .admin_job_charts_response_200_pools_item import AdminJobChartsResponse200PoolsItem
from .admin_job_charts_response_200_window import AdminJobChartsResponse200Window
from .admin_job_charts_system_type_1 import AdminJobChartsSystemType1
from .admin_job_charts_window_type_1 import AdminJobChartsWindowType1
from .admin_list_jobs_response_200 import AdminListJobsResponse200
from .admin_list_jobs_response_200_failure_groups_item import (
    AdminListJobsResponse200FailureGroupsItem,
)
from .admin_list_jobs_response_200_jobs_item import AdminListJobsResponse200JobsItem
from .admin_list_jobs_response_200_jobs_item_progress_type_0 import (
    AdminListJobsResponse200JobsItemProgressType0,
)
from .admin_list_jobs_response_200_jobs_item_status import (
    AdminListJobsResponse200JobsItemStatus,
)
from .admin_list_jobs_status_type_1 import AdminListJobsStatusType1
from .admin_remove_webhook_body import AdminRemoveWebhookBody
from .admin_remove_webhook_response_200 import AdminRemoveWebhookResponse200
from .admin_replay_jobs_body import AdminReplayJobsBody
from .admin_replay_jobs_body_status_type_1 import AdminReplayJobsBodyStatusType1
from .admin_replay_jobs_response_202 import AdminReplayJobsResponse202
from .admin_retry_job_response_202 import AdminRetryJobResponse202
from .admin_retry_job_response_202_job import AdminRetryJobResponse202Job
from .admin_retry_job_response_202_job_progress_type_0 import (
    AdminRetryJobResponse202JobProgressType0,
)
from .admin_retry_job_response_202_job_status import AdminRetryJobResponse202JobStatus
from .admin_revoke_api_key_body import AdminRevokeApiKeyBody
from .admin_revoke_api_key_response_200 import AdminRevokeApiKeyResponse200
from .admin_set_webhook_body import AdminSetWebhookBody
from .admin_set_webhook_response_200 import AdminSetWebhookResponse200
from .admin_suspend_member_body import AdminSuspendMemberBody
from .admin_suspend_member_response_200 import AdminSuspendMemberResponse200
from .admin_suspend_org_body import AdminSuspendOrgBody
from .admin_suspend_org_response_200 import AdminSuspendOrgResponse200
from .admin_suspend_user_body import AdminSuspendUserBody
from .admin_suspend_user_response_200 import AdminSuspendUserResponse200
from .admin_webhook_deliveries_body import AdminWebhookDeliveriesBody
from .admin_webhook_deliveries_body_status import AdminWebhookDeliveriesBodyStatus
from .admin_webhook_deliveries_response_200 import AdminWebhookDeliveriesResponse200
from .admin_webhook_deliveries_response_200_deliveries_item import (
    AdminWebhookDeliveriesResponse200DeliveriesItem,
)
from .admin_webhook_deliveries_response_200_deliveries_item_status import (
    AdminWebhookDeliveriesResponse200DeliveriesItemStatus,
)
from .auth_login_body import AuthLoginBody
from .auth_login_response_200 import AuthLoginResponse200
from .error import Error
from .error_error import ErrorError
from .error_error_code import ErrorErrorCode
from .error_error_details import ErrorErrorDetails
from .execution_identity_response_200 import ExecutionIdentityResponse200
from .execution_register_session_body import ExecutionRegisterSessionBody
from .execution_register_session_response_200 import ExecutionRegisterSessionResponse200
from .execution_register_session_response_201 import ExecutionRegisterSessionResponse201
from .execution_session_erasure_response_200 import ExecutionSessionErasureResponse200
from .execution_session_erasure_response_200_cause import (
    ExecutionSessionErasureResponse200Cause,
)
from .execution_session_erasure_response_200_stores_item import (
    ExecutionSessionErasureResponse200StoresItem,
)
from .execution_session_erasure_response_200_stores_item_status import (
    ExecutionSessionErasureResponse200StoresItemStatus,
)
from .jobs_cancel_response_200 import JobsCancelResponse200
from .jobs_cancel_response_200_follow_ups_item import JobsCancelResponse200FollowUpsItem
from .jobs_cancel_response_200_follow_ups_item_status import (
    JobsCancelResponse200FollowUpsItemStatus,
)
from .jobs_cancel_response_200_pool import JobsCancelResponse200Pool
from .jobs_cancel_response_200_progress_type_0 import JobsCancelResponse200ProgressType0
from .jobs_cancel_response_200_recall_type_0 import JobsCancelResponse200RecallType0
from .jobs_cancel_response_200_status import JobsCancelResponse200Status
from .jobs_cancel_response_202 import JobsCancelResponse202
from .jobs_cancel_response_202_follow_ups_item import JobsCancelResponse202FollowUpsItem
from .jobs_cancel_response_202_follow_ups_item_status import (
    JobsCancelResponse202FollowUpsItemStatus,
)
from .jobs_cancel_response_202_pool import JobsCancelResponse202Pool
from .jobs_cancel_response_202_progress_type_0 import JobsCancelResponse202ProgressType0
from .jobs_cancel_response_202_recall_type_0 import JobsCancelResponse202RecallType0
from .jobs_cancel_response_202_status import JobsCancelResponse202Status
from .jobs_events_response_200_type_0 import JobsEventsResponse200Type0
from .jobs_events_response_200_type_1 import JobsEventsResponse200Type1
from .jobs_get_response_200 import JobsGetResponse200
from .jobs_get_response_200_follow_ups_item import JobsGetResponse200FollowUpsItem
from .jobs_get_response_200_follow_ups_item_status import (
    JobsGetResponse200FollowUpsItemStatus,
)
from .jobs_get_response_200_pool import JobsGetResponse200Pool
from .jobs_get_response_200_progress_type_0 import JobsGetResponse200ProgressType0
from .jobs_get_response_200_recall_type_0 import JobsGetResponse200RecallType0
from .jobs_get_response_200_status import JobsGetResponse200Status
from .jobs_list_response_200 import JobsListResponse200
from .jobs_list_response_200_jobs_item import JobsListResponse200JobsItem
from .jobs_list_response_200_jobs_item_follow_ups_item import (
    JobsListResponse200JobsItemFollowUpsItem,
)
from .jobs_list_response_200_jobs_item_follow_ups_item_status import (
    JobsListResponse200JobsItemFollowUpsItemStatus,
)
from .jobs_list_response_200_jobs_item_pool import JobsListResponse200JobsItemPool
from .jobs_list_response_200_jobs_item_progress_type_0 import (
    JobsListResponse200JobsItemProgressType0,
)
from .jobs_list_response_200_jobs_item_recall_type_0 import (
    JobsListResponse200JobsItemRecallType0,
)
from .jobs_list_response_200_jobs_item_status import JobsListResponse200JobsItemStatus
from .jobs_list_status import JobsListStatus
from .jobs_submit_ai_task_body import JobsSubmitAiTaskBody
from .jobs_submit_ai_task_body_task import JobsSubmitAiTaskBodyTask
from .jobs_submit_ai_task_response_202 import JobsSubmitAiTaskResponse202
from .jobs_submit_embedding_refresh_body import JobsSubmitEmbeddingRefreshBody
from .jobs_submit_embedding_refresh_response_202 import (
    JobsSubmitEmbeddingRefreshResponse202,
)
from .jobs_submit_fix_body import JobsSubmitFixBody
from .jobs_submit_fix_response_202 import JobsSubmitFixResponse202
from .jobs_submit_ingest_body import JobsSubmitIngestBody
from .jobs_submit_ingest_response_202 import JobsSubmitIngestResponse202
from .memory_recall_repository_body import MemoryRecallRepositoryBody
from .memory_recall_repository_response_200 import MemoryRecallRepositoryResponse200
from .memory_recall_repository_response_200_results_item import (
    MemoryRecallRepositoryResponse200ResultsItem,
)
from .memory_recall_repository_response_200_results_item_object import (
    MemoryRecallRepositoryResponse200ResultsItemObject,
)
from .memory_recall_repository_response_200_results_item_subject import (
    MemoryRecallRepositoryResponse200ResultsItemSubject,
)
from .memory_recall_session_body import MemoryRecallSessionBody
from .memory_recall_session_response_200 import MemoryRecallSessionResponse200
from .memory_recall_session_response_200_results_item import (
    MemoryRecallSessionResponse200ResultsItem,
)
from .memory_recall_session_response_200_results_item_object import (
    MemoryRecallSessionResponse200ResultsItemObject,
)
from .memory_recall_session_response_200_results_item_subject import (
    MemoryRecallSessionResponse200ResultsItemSubject,
)
from .repository_memory_export_response_200 import RepositoryMemoryExportResponse200
from .repository_memory_forget_session_body import RepositoryMemoryForgetSessionBody
from .repository_memory_forget_session_response_200 import (
    RepositoryMemoryForgetSessionResponse200,
)
from .repository_memory_forget_session_response_200_scope import (
    RepositoryMemoryForgetSessionResponse200Scope,
)
from .repository_memory_forget_session_response_200_stores_item import (
    RepositoryMemoryForgetSessionResponse200StoresItem,
)
from .repository_memory_forget_session_response_200_stores_item_status import (
    RepositoryMemoryForgetSessionResponse200StoresItemStatus,
)
from .repository_memory_history_response_200 import RepositoryMemoryHistoryResponse200
from .repository_memory_history_response_200_versions_item import (
    RepositoryMemoryHistoryResponse200VersionsItem,
)
from .repository_memory_history_response_200_versions_item_object import (
    RepositoryMemoryHistoryResponse200VersionsItemObject,
)
from .repository_memory_history_response_200_versions_item_status import (
    RepositoryMemoryHistoryResponse200VersionsItemStatus,
)
from .repository_memory_history_response_200_versions_item_subject import (
    RepositoryMemoryHistoryResponse200VersionsItemSubject,
)
from .repository_memory_import_body import RepositoryMemoryImportBody
from .repository_memory_import_response_200 import RepositoryMemoryImportResponse200
from .repository_memory_index_body import RepositoryMemoryIndexBody
from .repository_memory_index_response_200 import RepositoryMemoryIndexResponse200
from .repository_memory_retract_response_200 import RepositoryMemoryRetractResponse200
from .repository_memory_search_nodes_response_200 import (
    RepositoryMemorySearchNodesResponse200,
)
from .repository_memory_search_nodes_response_200_nodes_item import (
    RepositoryMemorySearchNodesResponse200NodesItem,
)
from .repository_memory_subgraph_response_200 import RepositoryMemorySubgraphResponse200
from .repository_memory_subgraph_response_200_edges_item import (
    RepositoryMemorySubgraphResponse200EdgesItem,
)
from .repository_memory_subgraph_response_200_nodes_item import (
    RepositoryMemorySubgraphResponse200NodesItem,
)
from .repository_memory_upsert_body import RepositoryMemoryUpsertBody
from .repository_memory_upsert_body_triples_item import (
    RepositoryMemoryUpsertBodyTriplesItem,
)
from .repository_memory_upsert_response_200 import RepositoryMemoryUpsertResponse200
from .repository_memory_upsert_response_200_facts_item import (
    RepositoryMemoryUpsertResponse200FactsItem,
)
from .session_memory_clear_response_200 import SessionMemoryClearResponse200
from .session_memory_clear_response_200_scope import SessionMemoryClearResponse200Scope
from .session_memory_clear_response_200_stores_item import (
    SessionMemoryClearResponse200StoresItem,
)
from .session_memory_clear_response_200_stores_item_status import (
    SessionMemoryClearResponse200StoresItemStatus,
)
from .session_memory_erasure_response_200 import SessionMemoryErasureResponse200
from .session_memory_erasure_response_200_stores_item import (
    SessionMemoryErasureResponse200StoresItem,
)
from .session_memory_erasure_response_200_stores_item_status import (
    SessionMemoryErasureResponse200StoresItemStatus,
)
from .session_memory_export_response_200 import SessionMemoryExportResponse200
from .session_memory_history_response_200 import SessionMemoryHistoryResponse200
from .session_memory_history_response_200_versions_item import (
    SessionMemoryHistoryResponse200VersionsItem,
)
from .session_memory_history_response_200_versions_item_object import (
    SessionMemoryHistoryResponse200VersionsItemObject,
)
from .session_memory_history_response_200_versions_item_status import (
    SessionMemoryHistoryResponse200VersionsItemStatus,
)
from .session_memory_history_response_200_versions_item_subject import (
    SessionMemoryHistoryResponse200VersionsItemSubject,
)
from .session_memory_import_body import SessionMemoryImportBody
from .session_memory_import_response_200 import SessionMemoryImportResponse200
from .session_memory_offload_body import SessionMemoryOffloadBody
from .session_memory_offload_body_turns_item import SessionMemoryOffloadBodyTurnsItem
from .session_memory_offload_body_turns_item_role import (
    SessionMemoryOffloadBodyTurnsItemRole,
)
from .session_memory_offload_response_202 import SessionMemoryOffloadResponse202
from .session_memory_promote_body import SessionMemoryPromoteBody
from .session_memory_promote_response_200 import SessionMemoryPromoteResponse200
from .session_memory_read_response_200 import SessionMemoryReadResponse200
from .session_memory_read_response_200_entities_item import (
    SessionMemoryReadResponse200EntitiesItem,
)
from .session_memory_read_response_200_extraction import (
    SessionMemoryReadResponse200Extraction,
)
from .session_memory_read_response_200_facts_item import (
    SessionMemoryReadResponse200FactsItem,
)
from .session_memory_read_response_200_facts_item_object import (
    SessionMemoryReadResponse200FactsItemObject,
)
from .session_memory_read_response_200_facts_item_subject import (
    SessionMemoryReadResponse200FactsItemSubject,
)
from .session_memory_retract_response_200 import SessionMemoryRetractResponse200
from .session_memory_upsert_body import SessionMemoryUpsertBody
from .session_memory_upsert_body_triples_item import SessionMemoryUpsertBodyTriplesItem
from .session_memory_upsert_response_200 import SessionMemoryUpsertResponse200
from .session_memory_upsert_response_200_facts_item import (
    SessionMemoryUpsertResponse200FactsItem,
)
from .uploads_create_response_201 import UploadsCreateResponse201
from .uploads_create_response_201_format import UploadsCreateResponse201Format
from .uploads_list_response_200 import UploadsListResponse200
from .uploads_list_response_200_uploads_item import UploadsListResponse200UploadsItem
from .uploads_list_response_200_uploads_item_format import (
    UploadsListResponse200UploadsItemFormat,
)

__all__ = (
    "AccountMeResponse200",
    "AccountMeResponse200Auth",
    "AccountMeResponse200Organization",
    "AccountMeResponse200Role",
    "AccountMeResponse200User",
    "AdminAddMemberBody",
    "AdminAddMemberBodyRole",
    "AdminAddMemberResponse200",
    "AdminAddMemberResponse200Role",
    "AdminBootstrapBody",
    "AdminBootstrapResponse200",
    "AdminCancelJobResponse200",
    "AdminCancelJobResponse200Job",
    "AdminCancelJobResponse200JobProgressType0",
    "AdminCancelJobResponse200JobStatus",
    "AdminCancelJobResponse202",
    "AdminCancelJobResponse202Job",
    "AdminCancelJobResponse202JobProgressType0",
    "AdminCancelJobResponse202JobStatus",
    "AdminCreateApiKeyBody",
    "AdminCreateApiKeyResponse200",
    "AdminCreateOrgBody",
    "AdminCreateOrgResponse200",
    "AdminCreateRepoBody",
    "AdminCreateRepoResponse200",
    "AdminCreateUserBody",
    "AdminCreateUserResponse200",
    "AdminGetJobResponse200",
    "AdminGetJobResponse200AttemptsItem",
    "AdminGetJobResponse200FollowUpsItem",
    "AdminGetJobResponse200FollowUpsItemStatus",
    "AdminGetJobResponse200Job",
    "AdminGetJobResponse200JobProgressType0",
    "AdminGetJobResponse200JobStatus",
    "AdminGrantBody",
    "AdminGrantBodyLevel",
    "AdminGrantResponse200",
    "AdminGrantResponse200Level",
    "AdminJobChartsResponse200",
    "AdminJobChartsResponse200PoolsItem",
    "AdminJobChartsResponse200Window",
    "AdminJobChartsSystemType1",
    "AdminJobChartsWindowType1",
    "AdminListJobsResponse200",
    "AdminListJobsResponse200FailureGroupsItem",
    "AdminListJobsResponse200JobsItem",
    "AdminListJobsResponse200JobsItemProgressType0",
    "AdminListJobsResponse200JobsItemStatus",
    "AdminListJobsStatusType1",
    "AdminRemoveWebhookBody",
    "AdminRemoveWebhookResponse200",
    "AdminReplayJobsBody",
    "AdminReplayJobsBodyStatusType1",
    "AdminReplayJobsResponse202",
    "AdminRetryJobResponse202",
    "AdminRetryJobResponse202Job",
    "AdminRetryJobResponse202JobProgressType0",
    "AdminRetryJobResponse202JobStatus",
    "AdminRevokeApiKeyBody",
    "AdminRevokeApiKeyResponse200",
    "AdminSetWebhookBody",
    "AdminSetWebhookResponse200",
    "AdminSuspendMemberBody",
    "AdminSuspendMemberResponse200",
    "AdminSuspendOrgBody",
    "AdminSuspendOrgResponse200",
    "AdminSuspendUserBody",
    "AdminSuspendUserResponse200",
    "AdminWebhookDeliveriesBody",
    "AdminWebhookDeliveriesBodyStatus",
    "AdminWebhookDeliveriesResponse200",
    "AdminWebhookDeliveriesResponse200DeliveriesItem",
    "AdminWebhookDeliveriesResponse200DeliveriesItemStatus",
    "AuthLoginBody",
    "AuthLoginResponse200",
    "Error",
    "ErrorError",
    "ErrorErrorCode",
    "ErrorErrorDetails",
    "ExecutionIdentityResponse200",
    "ExecutionRegisterSessionBody",
    "ExecutionRegisterSessionResponse200",
    "ExecutionRegisterSessionResponse201",
    "ExecutionSessionErasureResponse200",
    "ExecutionSessionErasureResponse200Cause",
    "ExecutionSessionErasureResponse200StoresItem",
    "ExecutionSessionErasureResponse200StoresItemStatus",
    "JobsCancelResponse200",
    "JobsCancelResponse200FollowUpsItem",
    "JobsCancelResponse200FollowUpsItemStatus",
    "JobsCancelResponse200Pool",
    "JobsCancelResponse200ProgressType0",
    "JobsCancelResponse200RecallType0",
    "JobsCancelResponse200Status",
    "JobsCancelResponse202",
    "JobsCancelResponse202FollowUpsItem",
    "JobsCancelResponse202FollowUpsItemStatus",
    "JobsCancelResponse202Pool",
    "JobsCancelResponse202ProgressType0",
    "JobsCancelResponse202RecallType0",
    "JobsCancelResponse202Status",
    "JobsEventsResponse200Type0",
    "JobsEventsResponse200Type1",
    "JobsGetResponse200",
    "JobsGetResponse200FollowUpsItem",
    "JobsGetResponse200FollowUpsItemStatus",
    "JobsGetResponse200Pool",
    "JobsGetResponse200ProgressType0",
    "JobsGetResponse200RecallType0",
    "JobsGetResponse200Status",
    "JobsListResponse200",
    "JobsListResponse200JobsItem",
    "JobsListResponse200JobsItemFollowUpsItem",
    "JobsListResponse200JobsItemFollowUpsItemStatus",
    "JobsListResponse200JobsItemPool",
    "JobsListResponse200JobsItemProgressType0",
    "JobsListResponse200JobsItemRecallType0",
    "JobsListResponse200JobsItemStatus",
    "JobsListStatus",
    "JobsSubmitAiTaskBody",
    "JobsSubmitAiTaskBodyTask",
    "JobsSubmitAiTaskResponse202",
    "JobsSubmitEmbeddingRefreshBody",
    "JobsSubmitEmbeddingRefreshResponse202",
    "JobsSubmitFixBody",
    "JobsSubmitFixResponse202",
    "JobsSubmitIngestBody",
    "JobsSubmitIngestResponse202",
    "MemoryRecallRepositoryBody",
    "MemoryRecallRepositoryResponse200",
    "MemoryRecallRepositoryResponse200ResultsItem",
    "MemoryRecallRepositoryResponse200ResultsItemObject",
    "MemoryRecallRepositoryResponse200ResultsItemSubject",
    "MemoryRecallSessionBody",
    "MemoryRecallSessionResponse200",
    "MemoryRecallSessionResponse200ResultsItem",
    "MemoryRecallSessionResponse200ResultsItemObject",
    "MemoryRecallSessionResponse200ResultsItemSubject",
    "RepositoryMemoryExportResponse200",
    "RepositoryMemoryForgetSessionBody",
    "RepositoryMemoryForgetSessionResponse200",
    "RepositoryMemoryForgetSessionResponse200Scope",
    "RepositoryMemoryForgetSessionResponse200StoresItem",
    "RepositoryMemoryForgetSessionResponse200StoresItemStatus",
    "RepositoryMemoryHistoryResponse200",
    "RepositoryMemoryHistoryResponse200VersionsItem",
    "RepositoryMemoryHistoryResponse200VersionsItemObject",
    "RepositoryMemoryHistoryResponse200VersionsItemStatus",
    "RepositoryMemoryHistoryResponse200VersionsItemSubject",
    "RepositoryMemoryImportBody",
    "RepositoryMemoryImportResponse200",
    "RepositoryMemoryIndexBody",
    "RepositoryMemoryIndexResponse200",
    "RepositoryMemoryRetractResponse200",
    "RepositoryMemorySearchNodesResponse200",
    "RepositoryMemorySearchNodesResponse200NodesItem",
    "RepositoryMemorySubgraphResponse200",
    "RepositoryMemorySubgraphResponse200EdgesItem",
    "RepositoryMemorySubgraphResponse200NodesItem",
    "RepositoryMemoryUpsertBody",
    "RepositoryMemoryUpsertBodyTriplesItem",
    "RepositoryMemoryUpsertResponse200",
    "RepositoryMemoryUpsertResponse200FactsItem",
    "SessionMemoryClearResponse200",
    "SessionMemoryClearResponse200Scope",
    "SessionMemoryClearResponse200StoresItem",
    "SessionMemoryClearResponse200StoresItemStatus",
    "SessionMemoryErasureResponse200",
    "SessionMemoryErasureResponse200StoresItem",
    "SessionMemoryErasureResponse200StoresItemStatus",
    "SessionMemoryExportResponse200",
    "SessionMemoryHistoryResponse200",
    "SessionMemoryHistoryResponse200VersionsItem",
    "SessionMemoryHistoryResponse200VersionsItemObject",
    "SessionMemoryHistoryResponse200VersionsItemStatus",
    "SessionMemoryHistoryResponse200VersionsItemSubject",
    "SessionMemoryImportBody",
    "SessionMemoryImportResponse200",
    "SessionMemoryOffloadBody",
    "SessionMemoryOffloadBodyTurnsItem",
    "SessionMemoryOffloadBodyTurnsItemRole",
    "SessionMemoryOffloadResponse202",
    "SessionMemoryPromoteBody",
    "SessionMemoryPromoteResponse200",
    "SessionMemoryReadResponse200",
    "SessionMemoryReadResponse200EntitiesItem",
    "SessionMemoryReadResponse200Extraction",
    "SessionMemoryReadResponse200FactsItem",
    "SessionMemoryReadResponse200FactsItemObject",
    "SessionMemoryReadResponse200FactsItemSubject",
    "SessionMemoryRetractResponse200",
    "SessionMemoryUpsertBody",
    "SessionMemoryUpsertBodyTriplesItem",
    "SessionMemoryUpsertResponse200",
    "SessionMemoryUpsertResponse200FactsItem",
    "UploadsCreateResponse201",
    "UploadsCreateResponse201Format",
    "UploadsListResponse200",
    "UploadsListResponse200UploadsItem",
    "UploadsListResponse200UploadsItemFormat",
)
