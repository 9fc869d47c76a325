import { bundleHandler } from './support/lambda-bundle';

const b = await bundleHandler({ entry: 'functions/api/handler.ts' }, '/tmp/coldapi');
console.log(b.path, b.bytes, b.bytesByPackage.slice(0, 12));
