import { describeOrderStore, sqliteInstances } from './order-store-contract.ts';

describeOrderStore('node:sqlite (two connections to one file)', sqliteInstances);
