/** `values` without repeats, sorted: the stable form of a list whose order carries no meaning (namespaces, principals). */
export const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();
