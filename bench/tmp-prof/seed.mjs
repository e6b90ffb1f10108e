const [dist, path] = process.argv.slice(2);
const {openDatabase}=await import(dist+'/core/db/index.js');const {migrateToLatest}=await import(dist+'/core/db/migrations.js');
const h=openDatabase({dialect:'sqlite',path,url:'sqlite:'+path});await migrateToLatest(h.db);const now=new Date().toISOString();
await h.db.insertInto('users').values({id:'usr_o',email:'o@x.test',password_hash:null,role:'organizer',created_at:now,updated_at:now}).execute();
await h.db.insertInto('events').values({id:'evt_x',name:'E',description:'d'.repeat(200),status:'open',registration_deadline:new Date(Date.now()+864e5).toISOString(),submission_deadline:new Date(Date.now()+2*864e5).toISOString(),result_announced_at:null,tracks:'[]',dimensions:'[{"name":"x","weight":1}]',models:'[]',registration_open:1,auto_approve:1,form_fields:'[]',created_by:'usr_o',created_at:now,updated_at:now}).execute();await h.close();
