// Tables of the bank's resources (transfers, applications, cards, ...).
export {};
