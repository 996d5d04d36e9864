import { describe, expect, it } from 'vitest';
import { signAliyunAcs3, signAwsV4, signTencentTc3 } from '../../functions/gateway/delivery/signing';

/**
 * The providers' request signatures against the worked examples of their own documentation: same inputs, the
 * published signature. A signer that drifts by one byte (a header's case, the scope's date, the query's order)
 * fails here rather than at the provider.
 */

describe('AWS Signature Version 4', () => {
  const auth = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'us-east-1', service: 'service' };

  it('signs "get-vanilla" of the AWS Signature Version 4 test suite', async () => {
    const headers = await signAwsV4(
      { method: 'GET', url: 'https://example.amazonaws.com/', headers: { host: 'example.amazonaws.com' }, body: '' },
      { ...auth, at: Date.UTC(2015, 7, 30, 12, 36, 0) },
    );
    expect(headers).toEqual({
      'x-amz-date': '20150830T123600Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    });
  });

  it('signs the GET Object example of the Amazon S3 signature documentation (payload hash signed as a header)', async () => {
    const headers = await signAwsV4(
      { method: 'GET', url: 'https://examplebucket.s3.amazonaws.com/test.txt', headers: { Host: 'examplebucket.s3.amazonaws.com', Range: 'bytes=0-9' }, body: '' },
      {
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        region: 'us-east-1',
        service: 's3',
        at: Date.UTC(2013, 4, 24),
        signPayloadHeader: true,
      },
    );
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('changes with the secret, the body and the time', async () => {
    const request = { method: 'POST', url: 'https://email.eu-west-1.amazonaws.com/v2/email/outbound-emails', headers: { host: 'email.eu-west-1.amazonaws.com' }, body: '{}' };
    const base = await signAwsV4(request, { ...auth, at: 0 });
    expect((await signAwsV4(request, { ...auth, secretAccessKey: 'other', at: 0 })).authorization).not.toBe(base.authorization);
    expect((await signAwsV4({ ...request, body: '{ }' }, { ...auth, at: 0 })).authorization).not.toBe(base.authorization);
    expect((await signAwsV4(request, { ...auth, at: 1000 })).authorization).not.toBe(base.authorization);
  });
});

describe('Tencent Cloud TC3-HMAC-SHA256', () => {
  it('signs the DescribeInstances example of the Tencent Cloud API 3.0 signature documentation', async () => {
    const authorization = await signTencentTc3(
      {
        method: 'POST',
        url: 'https://cvm.tencentcloudapi.com/',
        headers: { 'Content-Type': 'application/json; charset=utf-8', Host: 'cvm.tencentcloudapi.com' },
        body: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
      },
      { secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE', secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE', service: 'cvm', at: 1551113065_000 },
    );
    expect(authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });
});

describe('Alibaba Cloud ACS3-HMAC-SHA256', () => {
  it('signs the RunInstances example of the Alibaba Cloud V3 signature documentation', async () => {
    const headers = await signAliyunAcs3(
      {
        method: 'POST',
        url: 'https://ecs.cn-shanghai.aliyuncs.com/?ImageId=win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd&RegionId=cn-shanghai',
        headers: { host: 'ecs.cn-shanghai.aliyuncs.com', 'x-acs-action': 'RunInstances', 'x-acs-version': '2014-05-26' },
        body: '',
      },
      { accessKeyId: 'YourAccessKeyId', accessKeySecret: 'YourAccessKeySecret', at: Date.UTC(2023, 9, 26, 10, 22, 32), nonce: '3156853299f313e23d1673dc12e1703d' },
    );
    expect(headers).toEqual({
      'x-acs-date': '2023-10-26T10:22:32Z',
      'x-acs-signature-nonce': '3156853299f313e23d1673dc12e1703d',
      'x-acs-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      authorization:
        'ACS3-HMAC-SHA256 Credential=YourAccessKeyId,SignedHeaders=host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version,Signature=06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0',
    });
  });
});
