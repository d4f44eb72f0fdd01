import { describeOrderStore, sqliteInstances } from './testing/order-store-contract.ts';

describeOrderStore('node:sqlite (two connections to one file)', sqliteInstances);
