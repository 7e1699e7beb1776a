import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { HttpRequest as _cms_common_v1_HttpRequest, HttpRequest__Output as _cms_common_v1_HttpRequest__Output } from './cms/common/v1/HttpRequest';
import type { HttpResponse as _cms_common_v1_HttpResponse, HttpResponse__Output as _cms_common_v1_HttpResponse__Output } from './cms/common/v1/HttpResponse';
import type { Principal as _cms_common_v1_Principal, Principal__Output as _cms_common_v1_Principal__Output } from './cms/common/v1/Principal';
import type { QueryParam as _cms_common_v1_QueryParam, QueryParam__Output as _cms_common_v1_QueryParam__Output } from './cms/common/v1/QueryParam';
import type { ChangeSchemaRequest as _cms_config_v1_ChangeSchemaRequest, ChangeSchemaRequest__Output as _cms_config_v1_ChangeSchemaRequest__Output } from './cms/config/v1/ChangeSchemaRequest';
import type { ChangeSchemaResult as _cms_config_v1_ChangeSchemaResult, ChangeSchemaResult__Output as _cms_config_v1_ChangeSchemaResult__Output } from './cms/config/v1/ChangeSchemaResult';
import type { Choice as _cms_config_v1_Choice, Choice__Output as _cms_config_v1_Choice__Output } from './cms/config/v1/Choice';
import type { Choices as _cms_config_v1_Choices, Choices__Output as _cms_config_v1_Choices__Output } from './cms/config/v1/Choices';
import type { ConfigServiceClient as _cms_config_v1_ConfigServiceClient, ConfigServiceDefinition as _cms_config_v1_ConfigServiceDefinition } from './cms/config/v1/ConfigService';
import type { FieldDefinition as _cms_config_v1_FieldDefinition, FieldDefinition__Output as _cms_config_v1_FieldDefinition__Output } from './cms/config/v1/FieldDefinition';
import type { FieldOverride as _cms_config_v1_FieldOverride, FieldOverride__Output as _cms_config_v1_FieldOverride__Output } from './cms/config/v1/FieldOverride';
import type { FieldsetDefinition as _cms_config_v1_FieldsetDefinition, FieldsetDefinition__Output as _cms_config_v1_FieldsetDefinition__Output } from './cms/config/v1/FieldsetDefinition';
import type { GetRecordsRequest as _cms_config_v1_GetRecordsRequest, GetRecordsRequest__Output as _cms_config_v1_GetRecordsRequest__Output } from './cms/config/v1/GetRecordsRequest';
import type { ListTypesRequest as _cms_config_v1_ListTypesRequest, ListTypesRequest__Output as _cms_config_v1_ListTypesRequest__Output } from './cms/config/v1/ListTypesRequest';
import type { RecordValues as _cms_config_v1_RecordValues, RecordValues__Output as _cms_config_v1_RecordValues__Output } from './cms/config/v1/RecordValues';
import type { RecordsChanged as _cms_config_v1_RecordsChanged, RecordsChanged__Output as _cms_config_v1_RecordsChanged__Output } from './cms/config/v1/RecordsChanged';
import type { TypeDefinition as _cms_config_v1_TypeDefinition, TypeDefinition__Output as _cms_config_v1_TypeDefinition__Output } from './cms/config/v1/TypeDefinition';
import type { TypeDefinitions as _cms_config_v1_TypeDefinitions, TypeDefinitions__Output as _cms_config_v1_TypeDefinitions__Output } from './cms/config/v1/TypeDefinitions';
import type { TypesChanged as _cms_config_v1_TypesChanged, TypesChanged__Output as _cms_config_v1_TypesChanged__Output } from './cms/config/v1/TypesChanged';
import type { WatchRecordsRequest as _cms_config_v1_WatchRecordsRequest, WatchRecordsRequest__Output as _cms_config_v1_WatchRecordsRequest__Output } from './cms/config/v1/WatchRecordsRequest';
import type { WatchTypesRequest as _cms_config_v1_WatchTypesRequest, WatchTypesRequest__Output as _cms_config_v1_WatchTypesRequest__Output } from './cms/config/v1/WatchTypesRequest';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  cms: {
    common: {
      v1: {
        HttpRequest: MessageTypeDefinition<_cms_common_v1_HttpRequest, _cms_common_v1_HttpRequest__Output>
        HttpResponse: MessageTypeDefinition<_cms_common_v1_HttpResponse, _cms_common_v1_HttpResponse__Output>
        Principal: MessageTypeDefinition<_cms_common_v1_Principal, _cms_common_v1_Principal__Output>
        QueryParam: MessageTypeDefinition<_cms_common_v1_QueryParam, _cms_common_v1_QueryParam__Output>
      }
    }
    config: {
      v1: {
        ChangeSchemaRequest: MessageTypeDefinition<_cms_config_v1_ChangeSchemaRequest, _cms_config_v1_ChangeSchemaRequest__Output>
        ChangeSchemaResult: MessageTypeDefinition<_cms_config_v1_ChangeSchemaResult, _cms_config_v1_ChangeSchemaResult__Output>
        Choice: MessageTypeDefinition<_cms_config_v1_Choice, _cms_config_v1_Choice__Output>
        Choices: MessageTypeDefinition<_cms_config_v1_Choices, _cms_config_v1_Choices__Output>
        ConfigService: SubtypeConstructor<typeof grpc.Client, _cms_config_v1_ConfigServiceClient> & { service: _cms_config_v1_ConfigServiceDefinition }
        FieldDefinition: MessageTypeDefinition<_cms_config_v1_FieldDefinition, _cms_config_v1_FieldDefinition__Output>
        FieldKind: EnumTypeDefinition
        FieldOverride: MessageTypeDefinition<_cms_config_v1_FieldOverride, _cms_config_v1_FieldOverride__Output>
        FieldsetDefinition: MessageTypeDefinition<_cms_config_v1_FieldsetDefinition, _cms_config_v1_FieldsetDefinition__Output>
        GetRecordsRequest: MessageTypeDefinition<_cms_config_v1_GetRecordsRequest, _cms_config_v1_GetRecordsRequest__Output>
        ListTypesRequest: MessageTypeDefinition<_cms_config_v1_ListTypesRequest, _cms_config_v1_ListTypesRequest__Output>
        RecordValues: MessageTypeDefinition<_cms_config_v1_RecordValues, _cms_config_v1_RecordValues__Output>
        RecordsChanged: MessageTypeDefinition<_cms_config_v1_RecordsChanged, _cms_config_v1_RecordsChanged__Output>
        SchemaChange: EnumTypeDefinition
        TypeDefinition: MessageTypeDefinition<_cms_config_v1_TypeDefinition, _cms_config_v1_TypeDefinition__Output>
        TypeDefinitions: MessageTypeDefinition<_cms_config_v1_TypeDefinitions, _cms_config_v1_TypeDefinitions__Output>
        TypesChanged: MessageTypeDefinition<_cms_config_v1_TypesChanged, _cms_config_v1_TypesChanged__Output>
        WatchRecordsRequest: MessageTypeDefinition<_cms_config_v1_WatchRecordsRequest, _cms_config_v1_WatchRecordsRequest__Output>
        WatchTypesRequest: MessageTypeDefinition<_cms_config_v1_WatchTypesRequest, _cms_config_v1_WatchTypesRequest__Output>
      }
    }
  }
}

