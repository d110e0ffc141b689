// Words the simulated partner builds its people, places and products from (pt-BR retail flavour).

export const firstNames = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Eduarda',
  'Felipe',
  'Gabriela',
  'Henrique',
  'Isabela',
  'João',
  'Larissa',
  'Marcos',
  'Natália',
  'Otávio',
  'Paula',
  'Rafael',
  'Sabrina',
  'Tiago',
  'Vanessa',
  'Wagner',
] as const;

export const lastNames = [
  'Almeida',
  'Barbosa',
  'Cardoso',
  'Dias',
  'Esteves',
  'Ferreira',
  'Gomes',
  'Lima',
  'Martins',
  'Nunes',
  'Oliveira',
  'Pereira',
  'Ribeiro',
  'Santos',
  'Teixeira',
  'Vieira',
] as const;

export const cities = [
  { city: 'São Paulo', state: 'SP', street: 'Avenida Paulista' },
  { city: 'Rio de Janeiro', state: 'RJ', street: 'Rua da Assembleia' },
  { city: 'Belo Horizonte', state: 'MG', street: 'Avenida Afonso Pena' },
  { city: 'Curitiba', state: 'PR', street: 'Rua XV de Novembro' },
  { city: 'Recife', state: 'PE', street: 'Avenida Boa Viagem' },
  { city: 'Porto Alegre', state: 'RS', street: 'Avenida Ipiranga' },
] as const;

export const smartphoneModels = [
  { brand: 'Samsung', model: 'Galaxy A55' },
  { brand: 'Samsung', model: 'Galaxy S24' },
  { brand: 'Motorola', model: 'Moto G85' },
  { brand: 'Motorola', model: 'Edge 50' },
  { brand: 'Apple', model: 'iPhone 15' },
  { brand: 'Xiaomi', model: 'Redmi Note 13' },
  { brand: 'Xiaomi', model: 'Poco X6' },
] as const;

export const storages = ['128 GB', '256 GB', '512 GB'] as const;

export const accessoryKinds = [
  'Capa',
  'Película',
  'Cabo USB-C',
  'Carregador 25 W',
  'Fone de ouvido',
] as const;

export const jobTitles = ['Vendedor', 'Vendedora', 'Consultor de vendas', 'Supervisor de vendas'] as const;

/** Carrier plans every simulated store sells; prices in cents. */
export const planTemplates = [
  { planId: 'PLAN-PRE', name: 'Pré-pago', cents: 0 },
  { planId: 'PLAN-CONTROLE-25', name: 'Controle 25 GB', cents: 5499 },
  { planId: 'PLAN-POS-50', name: 'Pós 50 GB', cents: 12999 },
] as const;

/** Services offered with every smartphone; price in cents. */
export const serviceTemplates = [
  { code: 'GE12', type: 'EXTENDED_WARRANTY', name: 'Garantia estendida 12 meses', cents: 19990 },
  { code: 'SRF', type: 'INSURANCE', name: 'Seguro roubo e furto qualificado', cents: 34990 },
  { code: 'PTL', type: 'PROTECTION', name: 'Proteção de tela', cents: 9990 },
] as const;
