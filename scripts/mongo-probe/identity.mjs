// ---------------------------------------------------------------- server identity
export async function readIdentity(client) {
  const admin = client.db('admin');
  const hello = await admin.command({ hello: 1 });
  const buildInfo = await admin.command({ buildInfo: 1 });
  const identity = {
    helloKeys: Object.keys(hello).sort(),
    hello: {
      isWritablePrimary: hello.isWritablePrimary,
      setName: hello.setName,
      msg: hello.msg,
      maxWireVersion: hello.maxWireVersion,
      logicalSessionTimeoutMinutes: hello.logicalSessionTimeoutMinutes,
      maxBsonObjectSize: hello.maxBsonObjectSize,
      maxMessageSizeBytes: hello.maxMessageSizeBytes,
      maxWriteBatchSize: hello.maxWriteBatchSize,
    },
    buildInfoKeys: Object.keys(buildInfo).sort(),
    buildInfo: {
      version: buildInfo.version,
      gitVersion: buildInfo.gitVersion,
      modules: buildInfo.modules,
      ferretdb: buildInfo.ferretdb,
      ferretdbVersion: buildInfo.ferretdbVersion,
      ferretdbFeatures: buildInfo.ferretdbFeatures,
    },
  };
  return identity;
}
