/** The operations of the contract, by operationId, in the order reports list them. */
export const allOperations = ['listPets', 'createPet', 'getPet', 'listStoreOrders'] as const;
