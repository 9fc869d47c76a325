import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  type HttpMethod,
  HttpNoneAuthorizer,
  type HttpRoute,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  CfnUserPoolGroup,
  ClientAttributes,
  type IUserPool,
  Mfa,
  StringAttribute,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
} from 'aws-cdk-lib/aws-cognito';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ADMIN_GROUP } from '../../functions/api/http';
import { API_ROUTES as V1_ROUTES } from '../../functions/api/route-keys';
import { acknowledge } from './nag';

/** One route of the public HTTP API. */
export interface ApiRoute {
  readonly method: HttpMethod;
  readonly path: string;
  /**
   * Why the route is reachable without a token. Only routes with a reason are public;
   * the reason is recorded with the cdk-nag APIG4 acknowledgement.
   * @default - the route requires a Cognito token
   */
  readonly publicBecause?: string;
}

/** The routes of API v1, from the list the handler and the local gateway share. */
export const API_ROUTES: readonly ApiRoute[] = V1_ROUTES.map((route) => {
  const [method = '', path = ''] = route.key.split(' ');
  return {
    method: method as HttpMethod,
    path,
    ...('publicBecause' in route ? { publicBecause: route.publicBecause } : {}),
  };
});

/** The Cognito custom attribute that names a user's tenant; tokens carry it as `custom:tenant`. */
export const TENANT_ATTRIBUTE = 'tenant';

export interface GpurentApiProps {
  /** The function behind every route. */
  readonly handler: IFunction;

  /** @default API_ROUTES */
  readonly routes?: readonly ApiRoute[];

  /**
   * Steady-state requests per second across the stage.
   * @default 50
   */
  readonly throttlingRateLimit?: number;

  /** @default 100 */
  readonly throttlingBurstLimit?: number;

  /** @default RetentionDays.ONE_YEAR */
  readonly accessLogRetention?: RetentionDays;

  /**
   * What happens to the user pool (tenant users) when it leaves the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly userPoolRemovalPolicy?: RemovalPolicy;

  /**
   * Sign tenants in with an existing user pool (it must define the immutable
   * `custom:tenant` attribute); the stack adds its app client and the `admin` group.
   * @default - a new user pool
   */
  readonly existingUserPoolId?: string;
}

/**
 * The tenant-facing HTTP API (API Gateway v2): one Lambda integration, a Cognito user
 * pool whose users belong to a tenant (`custom:tenant`, set by operators, not writable
 * by users), and a JWT authorizer that is the default for every route; only the routes
 * marked public opt out. The `$default` stage writes JSON access logs and is throttled.
 */
export class GpurentApi extends Construct {
  public readonly userPool: IUserPool;
  public readonly userPoolClient: UserPoolClient;
  public readonly authorizer: HttpJwtAuthorizer;
  /** `https://cognito-idp.<region>.amazonaws.com/<poolId>`: the `iss` of the pool's tokens. */
  public readonly issuer: string;
  public readonly httpApi: HttpApi;
  public readonly stage: HttpStage;
  public readonly accessLogGroup: LogGroup;
  public readonly routes: HttpRoute[] = [];
  public readonly adminGroup: CfnUserPoolGroup;

  constructor(scope: Construct, id: string, props: GpurentApiProps) {
    super(scope, id);

    this.userPool = props.existingUserPoolId
      ? UserPool.fromUserPoolId(this, 'UserPool', props.existingUserPoolId)
      : this.createUserPool(props);

    // Operators: members reach the /v1/admin routes (the API checks cognito:groups).
    this.adminGroup = new CfnUserPoolGroup(this, 'AdminGroup', {
      userPoolId: this.userPool.userPoolId,
      groupName: ADMIN_GROUP,
      description: 'gpurent operators: may call the /v1/admin routes',
    });

    this.userPoolClient = this.userPool.addClient('ApiClient', {
      authFlows: { userSrp: true },
      generateSecret: false,
      disableOAuth: true,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      readAttributes: new ClientAttributes()
        .withStandardAttributes({ email: true, emailVerified: true, fullname: true })
        .withCustomAttributes(TENANT_ATTRIBUTE),
      // Users may not change their tenant: custom:tenant is left out on purpose.
      writeAttributes: new ClientAttributes().withStandardAttributes({ fullname: true }),
    });

    this.issuer = `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${this.userPool.userPoolId}`;
    this.authorizer = new HttpJwtAuthorizer('CognitoJwtAuthorizer', this.issuer, {
      jwtAudience: [this.userPoolClient.userPoolClientId],
      identitySource: ['$request.header.Authorization'],
    });

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'gpurent tenant API',
      createDefaultStage: false,
      defaultAuthorizer: this.authorizer,
    });

    this.accessLogGroup = new LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? RetentionDays.ONE_YEAR,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      // Stage-wide: HTTP APIs have no usage plans or API keys, so API Gateway cannot
      // throttle per tenant. The per-tenant rate limit is the API function's (a counter
      // per tenant and second in DynamoDB, 429 RATE_LIMITED); this ceiling stays for all.
      throttle: {
        rateLimit: props.throttlingRateLimit ?? 50,
        burstLimit: props.throttlingBurstLimit ?? 100,
      },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogGroup),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTime',
            sourceIp: '$context.identity.sourceIp',
            userAgent: '$context.identity.userAgent',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            principal: '$context.authorizer.claims.sub',
          }),
        ),
      },
    });

    const integration = new HttpLambdaIntegration('LambdaIntegration', props.handler);
    for (const route of props.routes ?? API_ROUTES) {
      const [created] = this.httpApi.addRoutes({
        path: route.path,
        methods: [route.method],
        integration,
        authorizer: route.publicBecause ? new HttpNoneAuthorizer() : undefined,
      });
      if (!created) throw new Error(`No route created for ${route.method} ${route.path}.`);
      if (route.publicBecause) {
        acknowledge(
          created,
          'AwsSolutions-APIG4',
          `${route.method} ${route.path} is public on purpose: ${route.publicBecause}.`,
        );
      }
      this.routes.push(created);
    }
  }

  /** The API's base URL (the `$default` stage), ending with a slash. */
  public get url(): string {
    return this.stage.url;
  }

  private createUserPool(props: GpurentApiProps): UserPool {
    const userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      customAttributes: {
        [TENANT_ATTRIBUTE]: new StringAttribute({ minLen: 1, maxLen: 64, mutable: false }),
      },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      removalPolicy: props.userPoolRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    acknowledge(
      userPool,
      'AwsSolutions-COG8',
      'Essentials tier: users are created by operators (self sign-up disabled) and must use TOTP MFA; Plus-tier threat protection adds a per-user charge without a public sign-up or password-reset surface to protect.',
    );
    return userPool;
  }
}
