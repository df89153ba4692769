import type { components } from '../src/generated/contract.ts';

type Schemas = components['schemas'];

export type Profile = Schemas['Profile'];
export type Job = Schemas['Job'];
export type Container = Schemas['Container'];
export type Location = Schemas['Location'];
export type Experience = Schemas['Experience'];
export type Education = Schemas['Education'];
export type Skill = Schemas['Skill'];
export type NamedValue = Schemas['NamedValue'];
export type Attachment = Schemas['Attachment'];
export type Info = Schemas['Info'];
export type Url = Schemas['Url'];
export type Label = Schemas['Label'];
